/** The recovery codes as a text file to keep, with a line saying what they are. */
export function downloadRecoveryCodes(codes: string[], userName: string) {
  const text = [
    `Power Analyzer recovery codes for ${userName}`,
    'Each code signs you in once when your authenticator app is not at hand.',
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'power-analyzer-recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}
