// The lint configuration is the style: typescript-eslint's type-checked rules on every TypeScript file, each rule
// turned off here with the reason it does not fit. The pages under public/ are linted too, as the browser runs them,
// and may not write markup into the page from anything but a string literal (no-unsanitized).
import js from '@eslint/js';
import noUnsanitized from 'eslint-plugin-no-unsanitized';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '.local-data/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json', './tsconfig.public.json'], tsconfigRootDir: import.meta.dirname },
    },
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
  // Everything but the pages runs on Node.
  { ignores: ['public/**'], languageOptions: { globals: globals.node } },
  { files: ['**/*.mjs', '**/*.cjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  // A CommonJS file (one loaded into Azurite's own process, without a TypeScript loader) has require() and nothing else.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The pages run in the browser, with its globals only: the dashboard is an ES module, the widget and the snippet are
  // classic scripts that a site includes with <script>.
  { files: ['public/**/*.js'], languageOptions: { globals: globals.browser } },
  {
    files: ['public/headcount.js', 'public/headcount-pulse.js'],
    languageOptions: { sourceType: 'script' },
    rules: {
      // They are written for the oldest browsers a site may have (var, function): a catch there names its error
      // (`catch (e)`, as catch without a binding is newer), and the snippet's empty catches are the point (counting
      // never breaks the page), where a comment in each would cost its 1 KB.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A function() callback has a `this` of its own, so the widget's element is kept as `self` for them.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
    },
  },
  // Nothing a visitor controls (a path, a host, a campaign's tags) may reach the page as markup: no innerHTML, outerHTML,
  // insertAdjacentHTML, document.write or srcdoc but of a literal, and no such property handed to el() (Object.assign).
  {
    files: ['public/**/*.js'],
    plugins: { 'no-unsanitized': noUnsanitized },
    rules: {
      'no-unsanitized/method': 'error',
      'no-unsanitized/property': ['error', {}, { srcdoc: {} }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Property:matches([key.name=/^(innerHTML|outerHTML|srcdoc)$/], [key.value=/^(innerHTML|outerHTML|srcdoc)$/])',
          message: 'Markup from an object is not checked by no-unsanitized: build the nodes with el() and textContent.',
        },
      ],
    },
  },
);
