import type { BrowserContext, Page } from '@playwright/test';
import type { PrivateKeyAccount } from 'viem/accounts';

// A browser wallet as an extension injects it: an EIP-1193 provider per wallet, announced through
// EIP-6963 (`eip6963:announceProvider`, again on every `eip6963:requestProvider`) and, if asked,
// also set as `window.ethereum`. It answers accounts (none before the site asked for them with
// eth_requestAccounts) and chain id itself and signs `personal_sign`
// with the account's key in the test process (an exposed function), as a real wallet signs.

export interface InjectedWallet {
  account: PrivateKeyAccount;
  name: string;
  rdns: string;
  /** Also `window.ethereum` (a legacy wallet); false: it announces itself only through EIP-6963. */
  windowEthereum?: boolean;
}

/** The UI then uses the browser's own wallets instead of the test-only mock connector (app/layout.tsx). */
export async function withoutMockWallet(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: 'ui_mock_wallet', value: 'off', url: baseURL }]);
}

export async function injectWallets(page: Page, wallets: InjectedWallet[], chainId = 8453) {
  await page.exposeFunction('__e2eWalletSign', async (index: number, hexMessage: `0x${string}`) =>
    wallets[index]!.account.signMessage({ message: { raw: hexMessage } }),
  );
  await page.addInitScript(
    ({ list, chainHex }) => {
      const sign = (window as unknown as { __e2eWalletSign: (i: number, m: string) => Promise<string> }).__e2eWalletSign;
      list.forEach((wallet, index) => {
        const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
        const provider = {
          async request({ method, params }: { method: string; params?: unknown[] }) {
            switch (method) {
              case 'eth_requestAccounts':
                // The user approves this site (remembered like a real wallet does, per origin).
                localStorage.setItem(`e2e-wallet-approved:${wallet.rdns}`, '1');
                return [wallet.address];
              case 'eth_accounts':
                // Nothing until the site was approved: a page load alone connects no wallet.
                return localStorage.getItem(`e2e-wallet-approved:${wallet.rdns}`) ? [wallet.address] : [];
              case 'eth_chainId':
                return chainHex;
              case 'net_version':
                return String(parseInt(chainHex, 16));
              case 'personal_sign':
                return sign(index, String(params?.[0]));
              default:
                throw Object.assign(new Error(`${wallet.name} does not support ${method}`), { code: 4200 });
            }
          },
          on(event: string, listener: (...args: unknown[]) => void) {
            if (!listeners.has(event)) listeners.set(event, new Set());
            listeners.get(event)!.add(listener);
            return provider;
          },
          removeListener(event: string, listener: (...args: unknown[]) => void) {
            listeners.get(event)?.delete(listener);
            return provider;
          },
        };
        const icon = `data:image/svg+xml,${encodeURIComponent(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><rect width="20" height="20" rx="4" fill="${
            index === 0 ? '#f59e0b' : '#6366f1'
          }"/></svg>`,
        )}`;
        const detail = Object.freeze({
          info: { uuid: `00000000-0000-4000-8000-00000000000${index}`, name: wallet.name, icon, rdns: wallet.rdns },
          provider,
        });
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
        window.addEventListener('eip6963:requestProvider', announce);
        announce();
        if (wallet.windowEthereum) (window as unknown as { ethereum: unknown }).ethereum = provider;
      });
    },
    {
      list: wallets.map((w) => ({ address: w.account.address, name: w.name, rdns: w.rdns, windowEthereum: !!w.windowEthereum })),
      chainHex: `0x${chainId.toString(16)}`,
    },
  );
}
