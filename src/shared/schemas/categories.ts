import { z } from 'zod';
import { requiredText } from './common';

export interface CategoryDto {
  id: number;
  name: string;
}

export const createCategorySchema = z.object({ name: requiredText('Category name') }).strict();
export type CreateCategoryInput = z.infer<typeof createCategorySchema>;
