import { defineConfig } from 'vitest/config';
import { MOCKING_FILES } from './vitest.config.ts';

export default defineConfig({
  test: {
    name: 'checkout-mocks',
    include: MOCKING_FILES,
  },
});
