import { z } from 'zod';
import { ValidationException } from './validation.exception';
import { ZodValidationPipe } from './zod-validation.pipe';

describe('ZodValidationPipe', () => {
  const pipe = new ZodValidationPipe(
    z.object({ page: z.coerce.number().int().min(1), size: z.coerce.number().int().max(100) }),
  );

  it('returns the parsed value', () => {
    expect(pipe.transform({ page: '2', size: '20' })).toEqual({ page: 2, size: 20 });
  });

  it('throws a ValidationException naming every failing field', () => {
    try {
      pipe.transform({ page: '0', size: '500' });
      throw new Error('expected a ValidationException');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationException);
      const e = error as ValidationException;
      expect(e.httpStatus).toBe(400);
      expect(e.code).toBe('VALIDATION_FAILED');
      expect(e.details).toEqual([
        { field: 'page', message: 'Number must be greater than or equal to 1' },
        { field: 'size', message: 'Number must be less than or equal to 100' },
      ]);
    }
  });

  it('names the root when the value itself is wrong', () => {
    expect(() => pipe.transform(undefined)).toThrow('Validation failed: (root): Required');
  });
});
