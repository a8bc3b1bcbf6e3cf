// Imported first by each page's entry (main.tsx, screen/main.tsx): before any module can create a style element.
import { stampStyleNonces } from './styleNonce';

stampStyleNonces(document);
