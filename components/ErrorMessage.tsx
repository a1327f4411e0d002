/** A failure the user must notice: screen readers announce it when it appears. Renders nothing without one. */
export function ErrorMessage({ message }: { message: string | null | undefined }) {
  return message ? (
    <p role="alert" class="error">
      {message}
    </p>
  ) : null;
}
