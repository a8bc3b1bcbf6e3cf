export * from './document-model';
export * from './document-font';
export * from './document-xlsx';
export * from './document-pdf';
