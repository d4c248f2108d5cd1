// The lint configuration is the style: typescript-eslint's type-checked rules on every TypeScript file, each rule
// turned off here with the reason it does not fit.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '.local-data/**', 'data/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname }, globals: globals.node },
    rules: {
      // A port's implementation is `async` so that anything it throws reaches its caller as a rejection, as a caller of
      // a Promise-returning port expects, whether or not it has anything to await.
      '@typescript-eslint/require-await': 'off',
      // `_name` is how a destructuring leaves a field out on purpose (`{ applied: _applied, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benches read JSON answers (`any` by nature) whose shape their own assertions check field by field.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // `expect(port.method).…` and spies pass methods around unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.cjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  // A CommonJS file (one loaded into Azurite's own process, without a TypeScript loader) has require() and nothing else.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
