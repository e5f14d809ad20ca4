import SwaggerParser from '@apidevtools/swagger-parser';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, generate } from './gen-openapi.ts';

describe('the public API document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = JSON.parse(fs.readFileSync(DOCUMENT_FILE, 'utf8')) as Record<string, unknown>;
    // validate() dereferences in place: give it a copy.
    const validated = await SwaggerParser.validate(structuredClone(document) as never);
    expect('openapi' in validated && validated.openapi).toBe('3.1.0');
  });

  it('is refused when a reference points nowhere (the check can fail)', async () => {
    const document = JSON.parse(fs.readFileSync(DOCUMENT_FILE, 'utf8')) as {
      components: { schemas: Record<string, unknown> };
    };
    delete document.components.schemas.Link;
    await expect(SwaggerParser.validate(document as never)).rejects.toThrow();
  });

  it('and its types are what the generator writes now', async () => {
    for (const { file, text } of await generate()) {
      expect(fs.readFileSync(file, 'utf8'), file).toBe(text);
    }
  });
});
