export function Disclaimer() {
  return <p class="disclaimer">Decision support, not financial advice.</p>;
}
