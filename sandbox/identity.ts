/** Who the sandbox says it is: the name, version and sentences every surface repeats. */
export const SERVICE_NAME = 'Investing Agent';
export const SERVICE_VERSION = '1.4.0';
export const DISCLAIMER = 'Decision support, not financial advice.';
export const SUMMARY =
  'An AI investing agent that turns theses, narratives, screeners, backtests and automation ideas into live playbooks you review, test and control.';
