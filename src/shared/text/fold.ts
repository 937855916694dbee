/**
 * The one case fold text comparisons use: the transaction search's description filter (as the
 * SQL function fold(), registered on each connection) and the rules' text conditions. NFC first,
 * so a precomposed and a decomposed accent compare equal; then Unicode lower case.
 */
export function foldText(text: string): string {
  // Fast path (most bank text): printable ASCII needs no normalisation.
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFC').toLowerCase();
}

const ASCII = /^[\x20-\x7e]*$/;
