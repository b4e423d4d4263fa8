// The view's comments are read too: [a missing doc](../../nothing.md).
export const s = '// not a comment: missing.js';
