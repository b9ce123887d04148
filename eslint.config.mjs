import jupyter from '@jupyter/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/lib/**',
      'coverage/**',
      '.venv/**',
      'jupyterlite_webmcp/labextension/**',
      'demo/_output/**',
      'ui-tests/test-results/**',
      'ui-tests/playwright-report/**',
      '*.config.js',
      '*.config.mjs',
      'babel.config.js'
    ]
  },
  ...tseslint.configs.recommended,
  ...jupyter.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports' }
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'none', varsIgnorePattern: '^_' }
      ],
      '@typescript-eslint/naming-convention': [
        'error',
        {
          selector: 'interface',
          format: ['PascalCase'],
          custom: { regex: '^I[A-Z]', match: true }
        }
      ],
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'all'],
      'prefer-arrow-callback': 'error'
    }
  },
  {
    files: ['tests/**/*.ts', 'ui-tests/**/*.ts'],
    rules: {
      'jupyter/no-untranslated-string': 'off'
    }
  },
  prettier
);
