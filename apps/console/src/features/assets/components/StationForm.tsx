import {
  DrawerForm,
  ProForm,
  ProFormDateTimePicker,
  ProFormDependency,
  ProFormSelect,
  type ProFormInstance,
} from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { Alert, App, Col, Divider, Form, Skeleton, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { Suspense, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { instantOfPicked, pickedInstantParam, pickerNow } from '../../../app/format/businessPicker';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';
import { lazyNamed } from '../../../app/lazy/lazyNamed';
import { assetApi } from '../api/assetApi';
import { STATION_SECTIONS, stationFields } from '../grids/stationFields';
import { useDictionaries } from '../hooks/useDictionaries';
import { useRefOptions } from '../hooks/useRefOptions';
import { BASIC_MENUS, gridButtons, PRICE_PLAN_BUTTONS } from '../permissions';
import { assetsQueryKeys } from '../queryKeys';
import { labelsProblem, messageOf, type Translate } from '../rules/formRules';
import type { AssetRow } from '../types';
import { AssetFormField } from './AssetFormFields';
import { showFieldErrors } from './AssetGridPage';
import { toBody, toFormValues } from './fieldModel';
import { groupLabels, LabelsInput } from './LabelsInput';
import { StationPictures } from './StationPictures';
import { StationPricePlanHistory, stationPricePlansKey } from './StationPricePlanHistory';

const STATION_BUTTONS = gridButtons(BASIC_MENUS.station);

/** A picked plan start more than a minute ago: the api refuses it (the form may have been open a while). */
const PAST_GRACE_MS = 60_000;
type PickedTime = Dayjs | string | null | undefined;

/**
 * The plan's start to send: a later picked time (business wall-clock time) as an instant with the
 * business offset, else undefined (now).
 */
export function planEffectiveFrom(value: PickedTime, now: number = Date.now()): string | undefined {
  const at = instantOfPicked(value);
  return at !== undefined && at > now ? pickedInstantParam(value) : undefined;
}

// The map (leaflet) loads with the station form, not with every basic-data grid.
const CoordinatePicker = lazyNamed('station-map', () => import('./CoordinatePicker'), 'CoordinatePicker');

/** The map picker bound to the form's longitude and latitude. */
function MapField() {
  const form = Form.useFormInstance();
  return (
    <ProFormDependency name={['latitude', 'longitude']}>
      {({ latitude, longitude }) => (
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 300 }} />}>
          <CoordinatePicker
            latitude={typeof latitude === 'number' ? latitude : undefined}
            longitude={typeof longitude === 'number' ? longitude : undefined}
            onPick={(lat, lng) => {
              form.setFieldsValue({ latitude: lat, longitude: lng });
              void form.validateFields(['latitude', 'longitude']);
            }}
          />
        </Suspense>
      )}
    </ProFormDependency>
  );
}

/** The fields of the station form, by section, with the map, labels, price plan and pictures. */
function StationFormBody({
  row,
  onPicturesChanged,
}: {
  row: AssetRow | undefined;
  onPicturesChanged: () => void;
}) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const canViewPlans = usePermission(PRICE_PLAN_BUTTONS.view);
  const canEditPlans = usePermission(PRICE_PLAN_BUTTONS.edit);
  const canEditStation = usePermission(STATION_BUTTONS.edit);
  const dictCodes = useMemo(
    () => [
      { code: 'station_type', numeric: true },
      { code: 'station_status', numeric: true },
    ],
    [],
  );
  const { options: dict } = useDictionaries(dictCodes);
  const labels = useRefOptions({ kind: 'label' }, {});
  const plans = useQuery({
    queryKey: assetsQueryKeys.pricePlans(),
    queryFn: ({ signal }) => assetApi.pricePlans(signal),
    enabled: canViewPlans,
    staleTime: 60_000,
  });
  const context = { dict, editing: row !== undefined };

  return (
    <>
      {STATION_SECTIONS.map((section) => (
        <SectionFields key={section} section={section} context={context} />
      ))}
      <Col span={24}>
        <Divider orientation="left">{t('assets.station.section.labels')}</Divider>
      </Col>
      <Col span={24}>
        <ProForm.Item
          name="labelIds"
          rules={[
            {
              validator: async (_r: unknown, value: number[] | undefined) => {
                const problem = labelsProblem(groupLabels(value ?? [], labels.rows));
                if (problem) throw new Error(messageOf(tx, problem));
              },
            },
          ]}
        >
          <LabelsInput />
        </ProForm.Item>
      </Col>
      {canViewPlans && (
        <>
          <Col span={24}>
            <Divider orientation="left">{t('assets.station.section.pricePlan')}</Divider>
          </Col>
          <ProFormSelect
            name="pricePlanId"
            label={t('assets.field.pricePlan')}
            colProps={{ span: 12 }}
            options={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            disabled={!canEditPlans}
            tooltip={t('assets.station.pricePlanHint')}
            placeholder={t('assets.common.select')}
          />
          <ProFormDateTimePicker
            name="pricePlanFrom"
            label={<WithTimeZoneHint title={t('assets.station.pricePlanFrom')} wording />}
            colProps={{ span: 12 }}
            disabled={!canEditPlans}
            tooltip={t('assets.station.pricePlanFromHint')}
            fieldProps={
              {
                format: 'YYYY-MM-DD HH:mm:ss',
                placeholder: t('assets.station.pricePlanNow'),
                style: { width: '100%' },
                disabledDate: (day: Dayjs) => day.isBefore(pickerNow(), 'day'),
                'data-testid': 'station-price-plan-from',
              } as never
            }
            rules={[
              {
                validator: async (_r: unknown, value: PickedTime) => {
                  const at = instantOfPicked(value);
                  if (at !== undefined && at < Date.now() - PAST_GRACE_MS)
                    throw new Error(t('assets.station.pricePlanFromPast'));
                },
              },
            ]}
          />
          {row && (
            <Col span={24} style={{ marginBottom: 16 }}>
              <Typography.Text strong>{t('assets.station.pricePlanHistory')}</Typography.Text>
              <StationPricePlanHistory stationId={row.id} />
            </Col>
          )}
        </>
      )}
      <Col span={24}>
        <Divider orientation="left">{t('assets.station.section.pictures')}</Divider>
      </Col>
      <Col span={24} style={{ marginBottom: 16 }}>
        {row ? (
          <StationPictures
            stationId={row.id}
            pictureIds={(row['pictureIds'] as number[] | undefined) ?? []}
            canEdit={canEditStation}
            onChanged={onPicturesChanged}
          />
        ) : (
          <Alert type="info" showIcon message={t('assets.station.picturesAfterSave')} />
        )}
      </Col>
      {row && (
        <>
          <Col span={24}>
            <Divider orientation="left">{t('assets.station.section.sitePlan')}</Divider>
          </Col>
          <Col span={24} style={{ marginBottom: 16 }}>
            <Typography.Paragraph type="secondary">{t('assets.station.sitePlanHint')}</Typography.Paragraph>
            <StationPictures
              sitePlan
              stationId={row.id}
              pictureIds={typeof row['sitePlanPictureId'] === 'number' ? [row['sitePlanPictureId']] : []}
              canEdit={canEditStation}
              onChanged={onPicturesChanged}
            />
          </Col>
        </>
      )}
    </>
  );
}

function SectionFields({
  section,
  context,
}: {
  section: string;
  context: { dict: Record<string, { value: string | number; label: string }[]>; editing: boolean };
}) {
  const { t } = useTranslation();
  const fields = stationFields.filter((f) => f.section === section && f.form !== false);
  return (
    <>
      <Col span={24}>
        <Divider orientation="left">{t(`assets.station.section.${section}` as never)}</Divider>
      </Col>
      {fields.map((field) => (
        <AssetFormField key={field.name} field={field} context={context} />
      ))}
      {section === 'location' && (
        <Col span={24} style={{ marginBottom: 16 }}>
          <MapField />
        </Col>
      )}
    </>
  );
}

/** Form values of a station (or of a new one). */
export function stationFormValues(row: AssetRow | undefined): Record<string, unknown> {
  return {
    ...toFormValues(stationFields, row),
    labelIds: (row?.['labelIds'] as number[] | undefined) ?? [],
    pricePlanId: row?.['pricePlanId'] ?? undefined,
    pricePlanFrom: undefined,
  };
}

/** Saves the station, then links the chosen price plan when it changed (billing owns that link). */
export function useSaveStation() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEditPlans = usePermission(PRICE_PLAN_BUTTONS.edit);
  return async (
    row: AssetRow | undefined,
    values: Record<string, unknown>,
    form: ProFormInstance | undefined,
  ): Promise<AssetRow | undefined> => {
    const body = {
      ...toBody(stationFields, values),
      labelIds: (values['labelIds'] as number[] | undefined) ?? [],
    };
    let saved: AssetRow | undefined;
    try {
      saved = row ? await assetApi.update('station', row.id, body) : await assetApi.create('station', body);
    } catch (error) {
      showFieldErrors(form, error);
      return undefined;
    }
    if (!saved) return undefined;
    const planId = values['pricePlanId'];
    if (canEditPlans && typeof planId === 'number' && planId !== row?.['pricePlanId']) {
      try {
        await assetApi.assignPricePlan(
          saved.id,
          planId,
          planEffectiveFrom(values['pricePlanFrom'] as PickedTime),
        );
        void queryClient.invalidateQueries({ queryKey: stationPricePlansKey(saved.id) });
      } catch {
        // The station is saved; the request layer showed why the plan was not linked.
      }
    }
    void message.success(t(row ? 'assets.common.modified' : 'assets.common.added'));
    void queryClient.invalidateQueries({ queryKey: assetsQueryKeys.grid('station') });
    return saved;
  };
}

/** Add or edit a station in a drawer (the station list). */
export function StationDrawer({
  row,
  open,
  onClose,
  onSaved,
}: {
  row: AssetRow | undefined;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const formRef = useRef<ProFormInstance>();
  const save = useSaveStation();
  const queryClient = useQueryClient();
  // The row as stored now (pictures change while the drawer is open).
  const current = useQuery({
    queryKey: assetsQueryKeys.row('station', row?.id ?? 0),
    queryFn: ({ signal }) => assetApi.get('station', row!.id, signal),
    enabled: open && row !== undefined,
    initialData: row,
  });
  return (
    <DrawerForm
      key={row?.id ?? 'new'}
      formRef={formRef}
      title={t(row ? 'assets.common.editTitle' : 'assets.common.addTitle', {
        name: t('assets.noun.station'),
      })}
      open={open}
      width={920}
      grid
      rowProps={{ gutter: 16 }}
      initialValues={stationFormValues(row)}
      dateFormatter="string"
      drawerProps={{ destroyOnHidden: true, maskClosable: false, onClose }}
      onFinish={async (values) => {
        const saved = await save(row, values, formRef.current);
        if (saved) onSaved();
        return saved !== undefined;
      }}
      submitter={{ searchConfig: { submitText: t('common.ok'), resetText: t('common.cancel') } }}
    >
      <StationFormBody
        row={current.data ?? row}
        onPicturesChanged={() =>
          void queryClient.invalidateQueries({ queryKey: assetsQueryKeys.row('station', row?.id ?? 0) })
        }
      />
    </DrawerForm>
  );
}

/** The station form as a page (the spec's /station/stationInfoManage/components/addForm). */
export function StationFormCard({
  row,
  onSaved,
}: {
  row: AssetRow | undefined;
  onSaved: (saved: AssetRow) => void;
}) {
  const { t } = useTranslation();
  const formRef = useRef<ProFormInstance>();
  const save = useSaveStation();
  const queryClient = useQueryClient();
  return (
    <ProForm
      key={row?.id ?? 'new'}
      formRef={formRef}
      grid
      rowProps={{ gutter: 16 }}
      initialValues={stationFormValues(row)}
      dateFormatter="string"
      onFinish={async (values) => {
        const saved = await save(row, values, formRef.current);
        if (saved) onSaved(saved);
        return saved !== undefined;
      }}
      submitter={{
        searchConfig: { submitText: t('assets.common.save'), resetText: t('assets.common.reset') },
      }}
    >
      <StationFormBody
        row={row}
        onPicturesChanged={() =>
          void queryClient.invalidateQueries({ queryKey: assetsQueryKeys.row('station', row?.id ?? 0) })
        }
      />
    </ProForm>
  );
}
