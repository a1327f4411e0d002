// @ts-check
/**
 * A local ESLint plugin: the folders of lib/ form one order, bottom to top, and a file imports only
 * its own folder and the folders below its own. So no import cycle can run between folders (the
 * README's Architecture, "no cycles"), types included.
 *
 * The order is the rule's option: a list of layers, bottom first; a layer is a folder name or a
 * list of folder names that sit side by side (they may not import each other either). A root file
 * of lib/ (`lib/digest.ts`) is the folder `digest`. A folder the order does not name is reported,
 * so a new one has to be placed.
 *
 * Checked: `import … from`, `import type`, `export … from`, `import('…')` and `typeof import('…')`
 * in types, written as `@/lib/…` (and the other root aliases `~/`, `@@/`, `~~/`) or relative
 * (`../store/db`). components/ (the pure Preact components) is placed in the order like a lib
 * folder: a component may not import writes, pages or the worker. Libraries and other paths
 * (entrypoints/, tests) are not this rule's business.
 */
import path from 'node:path';

const ROOT_ALIAS = /^(?:@|~|@@|~~)\//;
/** components/ sits in the order like a lib folder: a component imports only what is below it. */
const COMPONENTS = 'components';

/** @param {string} folder @param {string} file */
function isInside(folder, file) {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
const SOURCE_EXTENSION = /\.[cm]?[jt]sx?$/;

/**
 * The lib folder of a path relative to lib/, or undefined outside lib/.
 * @param {string} fromLib
 */
function folderOf(fromLib) {
  if (fromLib === '' || fromLib.startsWith('..') || path.isAbsolute(fromLib)) return undefined;
  const first = fromLib.split(/[\\/]/)[0];
  return first.replace(SOURCE_EXTENSION, '');
}

/** @type {import('eslint').Rule.RuleModule} */
const folderOrder = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A lib folder imports only itself and the folders below it in the one order (eslint.config.js, LIB_LAYERS).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          layers: {
            type: 'array',
            items: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          },
          /** The project root (where lib/ is); the working directory when absent. */
          root: { type: 'string' },
        },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        'lib/{{from}} may not import lib/{{to}}: {{to}} is above {{from}} in the folder order (eslint.config.js, LIB_LAYERS). Move what both need down, types into lib/contract.',
      sideways:
        'lib/{{from}} may not import lib/{{to}}: they sit side by side in the folder order (eslint.config.js, LIB_LAYERS). Move what both need down, or order them.',
      unplaced:
        'lib/{{folder}} is not in the folder order: place it in LIB_LAYERS (eslint.config.js) so its imports are checked.',
    },
  },
  create(context) {
    const options = /** @type {{ layers: (string | string[])[]; root?: string }} */ (context.options[0]);
    /** @type {Map<string, number>} */
    const rank = new Map();
    options.layers.forEach((layer, index) => {
      for (const folder of Array.isArray(layer) ? layer : [layer]) rank.set(folder, index);
    });
    const root = options.root ?? context.cwd;
    const lib = path.join(root, 'lib');
    const components = path.join(root, 'components');
    /** The unit of a file path: a lib folder, `components` (pure Preact, placed in the order too), or undefined. @param {string} file */
    const unitOf = (file) => (isInside(components, file) ? COMPONENTS : folderOf(path.relative(lib, file)));
    const from = unitOf(context.filename);
    if (from === undefined) return {};
    const fromRank = rank.get(from);
    if (fromRank === undefined)
      return {
        /** @param {any} node */
        Program(node) {
          context.report({ node, messageId: 'unplaced', data: { folder: /** @type {string} */ (from) } });
        },
      };

    /**
     * @param {any} node
     * @param {unknown} specifier
     */
    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      let resolved;
      if (ROOT_ALIAS.test(specifier)) resolved = path.join(root, specifier.replace(ROOT_ALIAS, ''));
      else if (specifier.startsWith('.')) resolved = path.resolve(path.dirname(context.filename), specifier);
      else return;
      const to = unitOf(resolved);
      if (to === undefined || to === from) return;
      const toRank = rank.get(to);
      if (toRank === undefined) {
        context.report({ node, messageId: 'unplaced', data: { folder: to } });
        return;
      }
      if (toRank > fromRank) context.report({ node, messageId: 'upward', data: { from, to } });
      else if (toRank === fromRank) context.report({ node, messageId: 'sideways', data: { from, to } });
    }

    return {
      /** @param {any} node */
      ImportDeclaration(node) {
        check(node.source, node.source.value);
      },
      /** @param {any} node */
      ExportNamedDeclaration(node) {
        if (node.source) check(node.source, node.source.value);
      },
      /** @param {any} node */
      ExportAllDeclaration(node) {
        check(node.source, node.source.value);
      },
      /** @param {any} node */
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node.source, node.source.value);
      },
      /** `typeof import('…')` and `import('…').Name` in a type. @param {any} node */
      TSImportType(node) {
        // typescript-eslint 8 names the string `source`; older versions wrapped it in `argument`.
        const argument = 'source' in node ? node.source : node.argument;
        const literal = argument?.type === 'TSLiteralType' ? argument.literal : argument;
        if (literal?.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};

export default {
  meta: { name: 'playbook-companion-layers' },
  rules: { 'folder-order': folderOrder },
};
