// @ts-check
/**
 * A local ESLint plugin: page components show no literal language. Text in JSX and the
 * user-visible attributes (aria-label, title, placeholder…) come from locales/ through t() or
 * plural() (lib/i18n), so every page is in the user's language.
 *
 * Flagged: JSX text containing a letter (\p{L}), and string literals (also in a plain
 * `{'…'}` expression or a template without expressions) as the value of a visible attribute.
 * Not flagged: punctuation, symbols and digits ("—", "·", "×", "2"), an example address
 * ("https://example.com") and a path ("/apikey"), which are not language.
 */

/** Attributes whose value a person reads or hears. */
const VISIBLE_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
]);

const LETTER = /\p{L}/u;
/** An address or a path (`{origin}/apikey`) is the same in every language. */
const ADDRESS = /^(?:[a-z][\w+.-]*:\/\/|\/)\S*$/i;

/** @param {string} text */
function isLanguage(text) {
  return LETTER.test(text) && !ADDRESS.test(text.trim());
}

/**
 * The literal string an attribute value or expression holds, if it is one.
 * @param {any} node
 * @returns {string | undefined}
 */
function literalText(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'JSXExpressionContainer') return literalText(node.expression);
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' ');
  if (node.type === 'ConditionalExpression')
    return literalText(node.consequent) ?? literalText(node.alternate);
  if (node.type === 'LogicalExpression') return literalText(node.right);
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const noLiteralText = {
  meta: {
    type: 'problem',
    docs: {
      description: 'User-visible text in page components comes from locales/ (t, plural), never a literal.',
    },
    schema: [],
    messages: {
      text: 'Visible text "{{text}}" is a literal: add it to locales/*.yml and render t(\'…\') (README, Languages).',
      attribute:
        '{{name}}="{{text}}" is a literal: add it to locales/*.yml and pass t(\'…\') (README, Languages).',
    },
  },
  create(context) {
    return {
      /** @param {any} node */
      JSXText(node) {
        const text = String(node.value).trim();
        if (isLanguage(text)) context.report({ node, messageId: 'text', data: { text: text.slice(0, 40) } });
      },
      /** @param {any} node */
      'JSXElement > JSXExpressionContainer'(node) {
        const text = literalText(node.expression);
        if (text !== undefined && isLanguage(text)) {
          context.report({ node, messageId: 'text', data: { text: text.trim().slice(0, 40) } });
        }
      },
      /** @param {any} node */
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : undefined;
        if (!name || !VISIBLE_ATTRIBUTES.has(name)) return;
        const text = literalText(node.value);
        if (text !== undefined && isLanguage(text)) {
          context.report({ node, messageId: 'attribute', data: { name, text: text.trim().slice(0, 40) } });
        }
      },
    };
  },
};

export default {
  meta: { name: 'playbook-companion-i18n' },
  rules: { 'no-literal-text': noLiteralText },
};
