// API tokens: the tree of tokens made with tokens (locks for creating and revoking), and the read
// that authenticates a request.
export { lockTokenAsParent, lockTokenForRevoke, revokeTokenDescendants } from './token-tree.repository';
export { tokensByHash, type TokenRow } from './token-read.repository';
