// Lint: typescript-eslint's recommended type-checked rules over src/ and test/ (npm run lint; .ci/run runs it).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Plain JavaScript scripts (bench/, test/client/write-types.mjs) are outside the TypeScript project.
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'coverage/**', '.tap/**', 'test-dist/**', 'test/fixtures/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unused arguments named _x are deliberate (an interface's shape); anything else unused is a mistake.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON replies as `any` and check them field by field with tap's assertions; the
      // contract check (src/http/contract.ts) validates the shape of every reply against its schema.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // tap tracks the promise of every t.test() and awaits it; awaiting each would serialise nothing more.
      '@typescript-eslint/no-floating-promises': 'off',
      // tap's test functions are async by convention, awaiting or not.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
