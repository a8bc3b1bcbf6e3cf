import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { GuardedButton } from '@voltdepot/console-ui';
import { Alert, App, Flex, Modal, Progress, Table, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/providers/useLocale';
import { RequestError } from '../../../request';
import { adminApi, type ImportProgress, type ImportReport, type ImportRowError } from '../api/adminApi';

/** business-areas §5: only xlsx or xls; the server checks the bytes again (and the 2 MB limit). */
const ACCEPT = '.xlsx,.xls';
const MAX_BYTES = 2 * 1024 * 1024;
const POLL_MS = 500;

function newProgressId(): string {
  return globalThis.crypto?.randomUUID
    ? globalThis.crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
        (Number(c) ^ (Math.floor(Math.random() * 16) >> (Number(c) / 4))).toString(16),
      );
}

function reportOf(error: unknown): ImportReport | null {
  if (!(error instanceof RequestError)) return null;
  const details = error.body?.details as Partial<ImportReport> | undefined;
  return details && Array.isArray(details.errors) ? (details as ImportReport) : null;
}

/** User import (all or nothing): choose a file, watch the progress, read the per-row report. */
export function UserImportDialog({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [rejected, setRejected] = useState(false);
  const polling = useRef<ReturnType<typeof setInterval>>();

  useEffect(() => () => clearInterval(polling.current), []);
  useEffect(() => {
    if (!open) {
      setFile(null);
      setProgress(null);
      setReport(null);
      setRejected(false);
    }
  }, [open]);

  const start = async () => {
    if (!file) {
      void message.warning(t('admin.import.noFile'));
      return;
    }
    const progressId = newProgressId();
    setRunning(true);
    setReport(null);
    setRejected(false);
    setProgress({ phase: 'validating', processed: 0, total: 0 });
    polling.current = setInterval(() => {
      adminApi
        .importProgress(progressId)
        .then((p) => p && setProgress(p))
        .catch(() => undefined);
    }, POLL_MS);
    try {
      const result = await adminApi.importUsers(file, { lang: locale, progressId });
      if (result) {
        setReport(result);
        setProgress({ phase: 'done', processed: result.total, total: result.total });
        void message.success(t('admin.import.done', { imported: result.imported, total: result.total }));
        if (result.imported > 0) onImported();
      } else {
        setProgress(null);
      }
    } catch (error) {
      const details = reportOf(error);
      setReport(details);
      setRejected(details !== null);
      setProgress(null);
    } finally {
      clearInterval(polling.current);
      setRunning(false);
    }
  };

  const percent =
    progress && progress.total > 0 ? Math.round((progress.processed / progress.total) * 100) : 0;

  return (
    <Modal
      title={t('admin.import.title')}
      open={open}
      onCancel={running ? undefined : onClose}
      closable={!running}
      maskClosable={false}
      width={760}
      destroyOnHidden
      footer={[
        <GuardedButton
          key="template"
          icon={<DownloadOutlined />}
          onClick={() => adminApi.userImportTemplate(locale)}
          data-testid="user-import-template"
        >
          {t('admin.import.template')}
        </GuardedButton>,
        <GuardedButton key="close" onClick={onClose} disabled={running}>
          {t('admin.common.close')}
        </GuardedButton>,
        <GuardedButton
          key="start"
          type="primary"
          loading={running}
          onClick={start}
          data-testid="user-import-start"
        >
          {t('admin.import.start')}
        </GuardedButton>,
      ]}
    >
      <Flex vertical gap={16}>
        <Upload.Dragger
          accept={ACCEPT}
          maxCount={1}
          disabled={running}
          fileList={file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' as const }] : []}
          beforeUpload={(chosen) => {
            if (!/\.(xlsx|xls)$/i.test(chosen.name)) {
              void message.error(t('admin.import.onlyXlsx'));
            } else if (chosen.size > MAX_BYTES) {
              void message.error(t('admin.import.tooLarge'));
            } else {
              setFile(chosen);
              setReport(null);
            }
            return Upload.LIST_IGNORE;
          }}
          onRemove={() => setFile(null)}
          data-testid="user-import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('admin.import.chooseFile')}</p>
          <p className="ant-upload-hint">{t('admin.import.fileHint')}</p>
        </Upload.Dragger>
        <Typography.Text type="secondary" data-testid="user-import-all-or-nothing">
          {t('admin.import.allOrNothing')}
        </Typography.Text>
        {progress && (
          <div data-testid="user-import-progress">
            <Typography.Text type="secondary">{t(`admin.import.phase.${progress.phase}`)}</Typography.Text>
            <Progress
              percent={progress.phase === 'done' ? 100 : percent}
              status={running ? 'active' : undefined}
            />
          </div>
        )}
        {report && (
          <Alert
            type={rejected ? 'error' : report.failed > 0 ? 'warning' : 'success'}
            showIcon
            data-testid="user-import-result"
            message={
              rejected
                ? t('admin.import.rejected', { failed: report.failed, total: report.total })
                : t('admin.import.summary', {
                    imported: report.imported,
                    failed: report.failed,
                    total: report.total,
                  })
            }
          />
        )}
        {report && report.errors.length > 0 && (
          <Table<ImportRowError>
            size="small"
            rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
            dataSource={report.errors}
            pagination={{ pageSize: 8, showSizeChanger: false }}
            data-testid="user-import-errors"
            columns={[
              { title: t('admin.import.row'), dataIndex: 'row', width: 70 },
              {
                title: t('admin.import.column'),
                key: 'column',
                width: 180,
                render: (_v, e) => [e.column, e.header].filter(Boolean).join(' · ') || '-',
              },
              { title: t('admin.import.problem'), dataIndex: 'message' },
            ]}
          />
        )}
      </Flex>
    </Modal>
  );
}
