import assert from 'node:assert/strict';
import * as XLSX from 'xlsx';

// 0.18.5, the last `xlsx` on npm, has CVE-2023-30533 and CVE-2024-22363; 0.20.2 fixed both.
Deno.test('the spreadsheet reader is SheetJS 0.20.2 or later', () => {
  const [major, minor, patch] = XLSX.version.split('.').map(Number);
  assert.ok(
    major! > 0 || minor! > 20 || (minor === 20 && patch! >= 2),
    `SheetJS ${XLSX.version} has known vulnerabilities; use 0.20.2 or later`,
  );
});
