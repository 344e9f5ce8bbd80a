/**
 * The message to show for a failed API call. The API's 4xx messages are written for people
 * (validation errors arrive as one readable line); anything else gets a generic fallback.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message.trim() !== '') {
    if (error.message === 'Failed to fetch') return 'Could not reach the server. Check your connection and try again.';
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
