import { isolatedMessage } from '@/components/ServiceText';
import { t } from '@/lib/i18n';

export interface WelcomeProps {
  /** The local sandbox's address in a development build, where a demo service is there to try. */
  demoService?: string;
}

/**
 * What a new user reads first: what the extension does, the two things it needs (the service and a
 * key), and, in a development build, the sandbox to try it with. Shown until a key is stored.
 */
export function Welcome({ demoService }: WelcomeProps) {
  return (
    <section class="card stack welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">{t('options.welcome.heading')}</h2>
      <p>{t('options.welcome.what')}</p>
      <ol class="welcome-steps">
        <li>{isolatedMessage(t('options.welcome.service'), { path: '/api/v1' }, ['path'])}</li>
        <li>{t('options.welcome.key')}</li>
      </ol>
      {demoService ? (
        <p class="hint">
          {isolatedMessage(
            t('options.welcome.demo'),
            { service: demoService, page: `${demoService}/demo/quote/AAPL`, file: '.sandbox/demo-key' },
            ['service', 'page', 'file'],
          )}
        </p>
      ) : null}
    </section>
  );
}
