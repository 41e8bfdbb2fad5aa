// The cookie banner the server wrote into the page (server/modules/seo/consent.ts) is the consent
// tool's own markup, shown before any script runs. This small module, run by main.tsx before the
// app renders, keeps it honest until the tool (manager.ts, loaded after the first render) starts:
// a click on one of its buttons is carried out through the tool, and the tool's banner takes its
// place in the same task as it appears, so there is never a second dialog on the page.

type BannerRole = 'all' | 'necessary' | 'show';
const isRole = (value: string | undefined): value is BannerRole =>
  value === 'all' || value === 'necessary' || value === 'show';

export function adoptPrerenderedBanner(doc: Document = document): void {
  const copy = doc.querySelector<HTMLElement>('#cc-main[data-prerendered]');
  if (!copy) return;

  copy.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>('button[data-role]');
    const role = button?.dataset.role;
    if (!isRole(role)) return;
    copy.remove();
    import('./manager')
      .then((tool) => tool.answerBanner(role))
      .catch((err) => console.error('cookie consent unavailable', err));
  });

  // The tool appends its own #cc-main to <body>: swap them in that very task (observer callbacks
  // run before the browser paints or handles anything else), keeping the focus on the same button.
  const observer = new MutationObserver((records) => {
    const tool = records
      .flatMap((r) => [...r.addedNodes])
      .find((n): n is HTMLElement => n instanceof HTMLElement && n.id === 'cc-main' && n !== copy);
    if (!tool) return;
    observer.disconnect();
    const focused = doc.activeElement;
    const role =
      focused instanceof HTMLElement && copy.contains(focused) ? focused.dataset.role : undefined;
    if (copy.isConnected && tool.querySelector('.cm')) {
      // The tool's banner would fade in from nothing (and be read, half transparent, as text
      // without contrast): it takes the place of one already shown, so it shows at once.
      tool.setAttribute('data-adopted', '');
      doc.documentElement.classList.add('show--consent');
    }
    copy.remove();
    if (role) tool.querySelector<HTMLElement>(`.cm button[data-role="${role}"]`)?.focus();
  });
  observer.observe(doc.body, { childList: true });
}

/** The tool started without showing a banner (a valid choice is stored): drop the server's. */
export function dropPrerenderedBanner(doc: Document = document): void {
  doc.querySelector('#cc-main[data-prerendered]')?.remove();
}

/** Whether the page still shows the server's banner (the tool has not taken its place yet). */
export function hasPrerenderedBanner(doc: Document = document): boolean {
  return doc.querySelector('#cc-main[data-prerendered]') !== null;
}
