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
      'examples/*/labextension/**',
      'src/webmcp/validators.generated.ts',
      'demo/_output/**',
      'ui-tests/test-results/**',
      'ui-tests/playwright-report/**',
      'ui-tests/.assistants/**',
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
        project: ['./tsconfig.eslint.json'],
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
      // House style: options live in a namespace beside their class.
      '@typescript-eslint/no-namespace': 'off',
      // The tools are registered at start-up, so their modules load then.
      'jupyter/prefer-lazy-imports': 'off',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'all'],
      'prefer-arrow-callback': 'error'
    }
  },
  {
    // Access is decided only by src/access/policy.ts: every other layer asks
    // its predicates (isHidden, mayRead, mayWrite) instead of comparing an
    // access value, so a new access level touches the access module alone.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/access/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(none|read|write)$/]',
          message:
            'Decide access through src/access/policy.ts (isHidden, mayRead, mayWrite), not by comparing an access value.'
        },
        {
          selector: 'SwitchCase > Literal[value=/^(none|read|write)$/]',
          message:
            'Decide access through src/access/policy.ts (isHidden, mayRead, mayWrite), not by switching on an access value.'
        }
      ]
    }
  },
  {
    // Text for agents and tests is stable English, never translated.
    files: [
      'src/webmcp/**/*.ts',
      'src/jupyter/**/*.ts',
      'src/common/secrets.ts',
      'tests/**/*.ts',
      'ui-tests/**/*.ts'
    ],
    rules: {
      'jupyter/no-untranslated-string': 'off'
    }
  },
  prettier
);
