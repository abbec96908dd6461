/**
 * API keys at rest (Electron security checklist; docs/architecture.md#providers): encrypted with Electron's
 * `safeStorage` (Keychain on macOS, DPAPI on Windows, the Secret Service / kwallet on Linux)
 * where it is available; otherwise stored as plain text with a visible warning.
 *
 * A stored secret is a string: `safe:v1:<base64 of safeStorage ciphertext>` when encrypted,
 * `plain:v1:<text>` otherwise, so a file says how each value is kept and a later start with a
 * working keychain can re-encrypt it. `safeStorage` is injected (index.ts passes Electron's),
 * keeping this module testable under Node.
 * Docs: https://www.electronjs.org/docs/latest/api/safe-storage
 */

/** The surface of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no real keyring (Chromium's hard-coded key). */
  getSelectedStorageBackend?(): string;
}

/** What the host's provider settings call to keep a key. */
export interface SecretBox {
  /** True when secrets are really encrypted (an OS keyring is in use). */
  readonly available: boolean;
  /** Why `available` is false, for the settings UI; undefined when available. */
  readonly warning: string | undefined;
  /** Seals `text`; never throws for a usable box (falls back to `plain:` with the warning). */
  encrypt(text: string): string;
  /** Opens a value made by `encrypt`. Throws naming the problem for a foreign or damaged value. */
  decrypt(blob: string): string;
  /** True when `blob` is stored as plain text (it should be re-encrypted once `available`). */
  isPlain(blob: string): boolean;
}

const SAFE = 'safe:v1:';
const PLAIN = 'plain:v1:';

/** A SecretBox over `safeStorage`; `onWarning` is called once when it has to store plain text. */
export function createSecretBox(safeStorage: SafeStorageLike | undefined, onWarning?: (message: string) => void): SecretBox {
  let available = false;
  let warning: string | undefined;
  try {
    available = !!safeStorage?.isEncryptionAvailable();
    if (available && safeStorage?.getSelectedStorageBackend?.() === 'basic_text') {
      available = false;
      warning = 'No system keyring was found (Linux basic_text backend): API keys are stored unencrypted in settings (mode 0600).';
    }
  } catch {
    available = false;
  }
  if (!available && !warning) warning = 'OS encryption (safeStorage) is not available: API keys are stored unencrypted in settings (mode 0600).';
  let warned = false;
  const warnOnce = () => {
    if (warned || !warning) return;
    warned = true;
    onWarning?.(warning);
  };
  return {
    available,
    warning: available ? undefined : warning,
    encrypt(text: string): string {
      if (typeof text !== 'string') throw new TypeError('encrypt: the secret must be a string');
      if (available && safeStorage) {
        try {
          return SAFE + safeStorage.encryptString(text).toString('base64');
        } catch {
          // keyring locked or gone since start: fall back, loudly
        }
      }
      warnOnce();
      return PLAIN + text;
    },
    decrypt(blob: string): string {
      if (typeof blob !== 'string') throw new TypeError('decrypt: the stored secret must be a string');
      if (blob.startsWith(PLAIN)) return blob.slice(PLAIN.length);
      if (!blob.startsWith(SAFE)) throw new Error(`decrypt: not a stored secret (expected a "${SAFE}" or "${PLAIN}" prefix)`);
      if (!safeStorage || !available) throw new Error('decrypt: this secret was encrypted with the OS keyring, which is not available now; enter the key again');
      const data = Buffer.from(blob.slice(SAFE.length), 'base64');
      try {
        return safeStorage.decryptString(data);
      } catch (err) {
        throw new Error(`decrypt: the OS keyring could not decrypt this secret (${(err as Error).message}); enter the key again`, { cause: err });
      }
    },
    isPlain: (blob) => typeof blob === 'string' && blob.startsWith(PLAIN),
  };
}
