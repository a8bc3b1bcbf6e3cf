import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import ExcelJS from 'exceljs';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetValues } from '../shared/asset-definition';
import type { AssetCrudService } from '../shared/asset-crud.service';
import type { AssetRepository } from '../shared/asset.repository';
import { vehicleSchema } from './vehicles.definition';

/** What multer hands over for one uploaded file. */
export type UploadedSpreadsheet = { originalname: string; size: number; buffer: Buffer };

export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
/** business-areas §5: "Import: a file must be chosen first, only xlsx or xls." */
export const IMPORT_NO_FILE_MESSAGE = 'A file must be chosen first';
export const IMPORT_TYPE_MESSAGE = 'Only xlsx or xls files can be imported';

/** Import template columns: English or Chinese headers, in any order. */
export const IMPORT_COLUMNS: { key: string; headers: string[] }[] = [
  { key: 'vin', headers: ['VIN', '车架号'] },
  { key: 'plate', headers: ['License plate', '车牌号'] },
  { key: 'manufacturer', headers: ['Manufacturer', '厂家'] },
  { key: 'selfNumber', headers: ['Self number', '自编号'] },
  { key: 'companyNumber', headers: ['Company number', '公司编号'] },
  { key: 'fleetNumber', headers: ['Fleet number', '车队编号'] },
  { key: 'lineNumber', headers: ['Line number', '线路编号'] },
  { key: 'batteryCapacityWh', headers: ['Battery capacity (Wh)', '电池容量(Wh)'] },
  { key: 'vehicleModel', headers: ['Vehicle model', '车型'] },
];

export type ImportRowError = { row: number; field: string; message: string };

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/** Vehicle import: every row is checked first; any error rejects the whole file (nothing half-imported). */
export class VehiclesService {
  constructor(
    readonly crud: AssetCrudService,
    private readonly repository: AssetRepository,
  ) {}

  async import(me: AuthPrincipal, file: UploadedSpreadsheet | undefined): Promise<{ imported: number }> {
    if (file === undefined || file.size === 0) {
      throw new ValidationException([{ field: 'file', message: IMPORT_NO_FILE_MESSAGE }]);
    }
    const extension = /\.(xlsx|xls)$/i.exec(file.originalname)?.[1]?.toLowerCase();
    const head = file.buffer.subarray(0, 4);
    if (extension === undefined || !(head.equals(ZIP_MAGIC) || head.equals(OLE_MAGIC))) {
      throw new ValidationException([{ field: 'file', message: IMPORT_TYPE_MESSAGE }]);
    }
    if (head.equals(OLE_MAGIC)) {
      // exceljs reads Office Open XML only.
      throw new AssetsException(
        AssetsErrorCode.ImportRejected,
        'Excel 97-2003 (.xls) workbooks cannot be read yet: save the file as .xlsx and import it again',
      );
    }
    const rows = await this.readRows(file.buffer);
    const scope = await this.crud.scopeOf(me);
    const lookups = await this.repository.vehicleImportLookups(scope);
    const errors: ImportRowError[] = [];
    const accepted: { row: number; values: AssetValues }[] = [];
    const seen = { vin: new Map<string, number>(), plate: new Map<string, number>() };

    for (const { row, cells } of rows) {
      const rowErrors: ImportRowError[] = [];
      const fail = (field: string, message: string) => rowErrors.push({ row, field, message });
      const manufacturerId = cells['manufacturer']
        ? lookups.carManufacturers.get(cells['manufacturer'])
        : null;
      if (cells['manufacturer'] && manufacturerId === undefined)
        fail('manufacturer', `No car manufacturer named '${cells['manufacturer']}'`);
      const companyId = cells['companyNumber'] ? lookups.companies.get(cells['companyNumber']) : null;
      if (cells['companyNumber'] && companyId === undefined)
        fail('companyNumber', `No company numbered '${cells['companyNumber']}'`);
      let fleetId: number | null | undefined = null;
      if (cells['fleetNumber']) {
        fleetId = companyId ? lookups.fleets.get(`${companyId}/${cells['fleetNumber']}`) : undefined;
        if (fleetId === undefined)
          fail('fleetNumber', `No fleet numbered '${cells['fleetNumber']}' in the row's company`);
      }
      let lineId: number | null | undefined = null;
      if (cells['lineNumber']) {
        lineId = fleetId ? lookups.lines.get(`${fleetId}/${cells['lineNumber']}`) : undefined;
        if (lineId === undefined)
          fail('lineNumber', `No line numbered '${cells['lineNumber']}' in the row's fleet`);
      }
      const capacity = cells['batteryCapacityWh'];
      const parsed = vehicleSchema.safeParse({
        vin: cells['vin'] ?? undefined,
        plate: cells['plate'] ?? undefined,
        manufacturerId: manufacturerId ?? undefined,
        selfNumber: cells['selfNumber'] ?? null,
        companyId: companyId ?? null,
        fleetId: fleetId ?? null,
        lineId: lineId ?? null,
        batteryCapacityWh: capacity
          ? Number.isFinite(Number(capacity))
            ? Number(capacity)
            : capacity
          : null,
        vehicleModel: cells['vehicleModel'] ?? null,
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? '(row)');
          // An unresolved reference was reported above with the cell's own name.
          if (field === 'manufacturerId' && cells['manufacturer']) continue;
          fail(field === 'manufacturerId' ? 'manufacturer' : field, issue.message);
        }
      } else {
        const values = parsed.data as AssetValues;
        for (const key of ['vin', 'plate'] as const) {
          const value = String(values[key]).toUpperCase();
          const first = seen[key].get(value);
          if (first !== undefined) fail(key, `Repeats row ${first}`);
          else seen[key].set(value, row);
        }
        if (rowErrors.length === 0) accepted.push({ row, values });
      }
      errors.push(...rowErrors);
    }

    const taken = await this.repository.existingVehicleKeys(
      accepted.map((a) => String(a.values['vin'])),
      accepted.map((a) => String(a.values['plate'])),
    );
    for (const { row, values } of accepted) {
      if (taken.vins.has(String(values['vin'])))
        errors.push({
          row,
          field: 'vin',
          message: `A vehicle with VIN '${String(values['vin'])}' already exists`,
        });
      if (taken.plates.has(String(values['plate'])))
        errors.push({
          row,
          field: 'plate',
          message: `A vehicle with license plate '${String(values['plate'])}' already exists`,
        });
    }
    if (errors.length > 0) {
      errors.sort((a, b) => a.row - b.row);
      throw new AssetsException(
        AssetsErrorCode.ImportRejected,
        `${new Set(errors.map((e) => e.row)).size} row(s) have errors; nothing was imported`,
        { errors },
      );
    }
    await this.repository.transaction(async (m) => {
      for (const { values } of accepted) await this.crud.create(me, values, m);
    });
    return { imported: accepted.length };
  }

  private async readRows(buffer: Buffer): Promise<{ row: number; cells: Record<string, string | null> }[]> {
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    } catch {
      throw new ValidationException([{ field: 'file', message: IMPORT_TYPE_MESSAGE }]);
    }
    const sheet = workbook.worksheets[0];
    if (sheet === undefined) {
      throw new AssetsException(AssetsErrorCode.ImportRejected, 'The workbook has no sheet');
    }
    const header = sheet.getRow(1);
    const columnOf = new Map<string, number>();
    header.eachCell((cell, column) => {
      const text = cell.text.trim().toLowerCase();
      const known = IMPORT_COLUMNS.find((c) => c.headers.some((h) => h.toLowerCase() === text));
      if (known) columnOf.set(known.key, column);
    });
    const missing = ['vin', 'plate', 'manufacturer'].filter((k) => !columnOf.has(k));
    if (missing.length > 0) {
      const names = missing.map((k) => IMPORT_COLUMNS.find((c) => c.key === k)!.headers[0]);
      throw new AssetsException(
        AssetsErrorCode.ImportRejected,
        `The first row must name the columns; missing: ${names.join(', ')}`,
      );
    }
    const rows: { row: number; cells: Record<string, string | null> }[] = [];
    for (let r = 2; r <= sheet.rowCount; r++) {
      const sheetRow = sheet.getRow(r);
      const cells: Record<string, string | null> = {};
      for (const [key, column] of columnOf) {
        const text = sheetRow.getCell(column).text.trim();
        cells[key] = text === '' ? null : text;
      }
      if (Object.values(cells).every((v) => v === null)) continue;
      rows.push({ row: r, cells });
      if (rows.length > IMPORT_MAX_ROWS) {
        throw new AssetsException(
          AssetsErrorCode.ImportRejected,
          `At most ${IMPORT_MAX_ROWS} vehicles can be imported at a time`,
        );
      }
    }
    if (rows.length === 0)
      throw new AssetsException(AssetsErrorCode.ImportRejected, 'The file has no vehicle rows');
    return rows;
  }
}
