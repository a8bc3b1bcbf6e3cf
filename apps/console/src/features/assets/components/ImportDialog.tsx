import { FileExcelOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/providers/useLocale';
import { RequestError } from '../../../request';
import { assetApi } from '../api/assetApi';
import { importFileProblem, messageOf, type Translate } from '../rules/formRules';
import type { AssetKind, ImportReport } from '../types';

type RowError = NonNullable<ImportReport['errors']>[number];

/**
 * Import dialog: a file must be chosen first, only xlsx or xls (business-areas §5); the template of the
 * grid's columns can be downloaded; a rejected file lists each bad row and column.
 */
export function ImportDialog({
  kind,
  title,
  open,
  onClose,
  onImported,
}: {
  kind: AssetKind;
  title: string;
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { locale } = useLocale();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [errors, setErrors] = useState<RowError[]>([]);
  const [busy, setBusy] = useState(false);

  const close = () => {
    onClose();
    setFile(undefined);
    setProblem(undefined);
    setErrors([]);
  };

  const submit = async () => {
    const p = importFileProblem(file);
    if (p) {
      setProblem(messageOf(tx, p));
      return;
    }
    setBusy(true);
    setErrors([]);
    try {
      const report = await assetApi.importFile(kind, file!, locale);
      if (report) {
        void message.success(t('assets.common.imported', { count: report.imported }));
        onImported();
        close();
      }
    } catch (error) {
      const details =
        error instanceof RequestError
          ? (error.body?.details as { errors?: RowError[] } | undefined)
          : undefined;
      setErrors(details?.errors ?? []);
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: '1', name: file.name, status: 'done' }] : [];
  return (
    <Modal
      open={open}
      title={t('assets.common.importTitle', { name: title })}
      onCancel={close}
      destroyOnHidden
      width={720}
      footer={[
        <Button
          key="template"
          icon={<FileExcelOutlined />}
          onClick={() =>
            void assetApi.downloadTemplate(kind, locale, `${title}${t('assets.common.template')}.xlsx`)
          }
        >
          {t('assets.common.template')}
        </Button>,
        <Button key="cancel" onClick={close}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={busy} data-testid={`import-submit-${kind}`} onClick={submit}>
          {t('assets.common.import')}
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Upload
          accept=".xlsx,.xls"
          maxCount={1}
          fileList={fileList}
          beforeUpload={(chosen) => {
            const p = importFileProblem(chosen);
            setProblem(p ? messageOf(tx, p) : undefined);
            setFile(p ? undefined : chosen);
            return false;
          }}
          onRemove={() => setFile(undefined)}
        >
          <Button icon={<UploadOutlined />}>{t('assets.common.chooseFile')}</Button>
        </Upload>
        <span>{t('assets.common.importHint')}</span>
        {problem && <Alert type="error" showIcon message={problem} />}
        {errors.length > 0 && (
          <Table<RowError>
            size="small"
            rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
            dataSource={errors}
            pagination={{ pageSize: 8 }}
            columns={[
              { title: t('assets.common.row'), dataIndex: 'row', width: 70 },
              {
                title: t('assets.common.column'),
                render: (_v, e) => e.header ?? e.column ?? e.field,
                width: 160,
              },
              { title: t('assets.common.problem'), dataIndex: 'message' },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
