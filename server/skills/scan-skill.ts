// The safety scan a skill passes before it goes active (issue 14, beyond the spec): known-bad
// patterns in the integration payload, repo URL and texts, and names that imitate existing skills.
// A hit keeps the skill in draft with the reasons. Patterns are fixed, linear-time expressions run
// over bounded text (the payload is at most 32 KiB); nothing caller-supplied is compiled or run.

interface Rule {
  reason: string;
  pattern: RegExp;
}

const RULES: Rule[] = [
  {
    reason: 'shell download-and-execute (curl/wget piped to a shell)',
    pattern:
      /\b(?:curl|wget)\b[^\n|;]{0,300}\|\s{0,5}(?:sudo(?:\s{1,5}-[\w-]{1,20}){0,4}\s{1,5})?(?:(?:ba|z|da|k|fi)?sh|python[\d.]{0,4}|perl|ruby|node|php)\b/i,
  },
  {
    // Saved to a file, then run: `curl -o x ... && bash x`, `...; chmod +x x; ./x`.
    reason: 'shell download-and-execute (downloaded file run)',
    pattern: /\b(?:curl|wget)\b[^\n&;]{0,300}(?:&&|;)\s{0,5}(?:sudo\s{1,5})?(?:(?:ba|z|da|k)?sh\s|chmod\s{1,5}\+?[0-7x]|\.\/)/i,
  },
  {
    reason: 'shell download-and-execute (remote script sourced or evaluated)',
    pattern: /\b(?:bash|sh)\s{1,5}-c\s{1,5}["']?\$\((?:curl|wget)\b/i,
  },
  { reason: 'encoded payload piped to a shell', pattern: /base64\s{1,5}(?:-d|--decode)[^\n]{0,200}\|\s{0,5}(?:ba)?sh\b/i },
  {
    reason: 'PowerShell download-and-execute',
    pattern: /\b(?:iex|invoke-expression)\b[^\n]{0,200}\b(?:downloadstring|invoke-webrequest|iwr)\b/i,
  },
  {
    reason: 'asks for a wallet private key, seed phrase or mnemonic',
    pattern: /\b(?:private[\s_-]?key|seed[\s_-]?phrase|mnemonic|secret[\s_-]?recovery[\s_-]?phrase)\b/i,
  },
  {
    reason: 'reads wallet key files or environment secrets',
    pattern: /(?:\.ethereum\/keystore|\bkeystore\b|\bprocess\.env\b|\bos\.environ\b|\$\{?PRIVATE_KEY)/i,
  },
  {
    reason: 'prompt-injection marker (instructions to ignore earlier instructions)',
    pattern:
      /\b(?:ignore|disregard|forget)\s{1,5}(?:all\s{1,5})?(?:the\s{1,5})?(?:previous|prior|above|earlier)\s{1,5}(?:instructions|prompts|rules)\b/i,
  },
  {
    reason: 'prompt-injection marker (chat-template or system-prompt tokens)',
    pattern: /(?:<\|im_start\|>|<\|system\|>|\[\/?INST\]|<<SYS>>|\byou are now (?:in )?developer mode\b)/i,
  },
  {
    reason: 'paste-bin or raw-IP download host',
    pattern: /\bhttps?:\/\/(?:pastebin\.com|paste\.ee|transfer\.sh|(?:\d{1,3}\.){3}\d{1,3})(?:[:/]|\b)/i,
  },
];

/** Lowercase letters and digits only: how two names are compared. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Levenshtein distance, stopping early above `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

export interface ScanInput {
  name: string;
  description: string;
  summary: string;
  repoUrl: string | null;
  integrationPayload: unknown;
  /** Names of other authors' active skills (and the example skills). */
  existingNames: string[];
}

/** Every string (keys and values) in a JSON value, unescaped, so patterns see the text as written. */
function strings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out, depth + 1);
    }
  }
  return out;
}

/** The reasons a skill must stay in draft; empty when it is clean. */
export function scanSkill(input: ScanInput): string[] {
  const parts = strings(input.integrationPayload ?? {});
  // Each string alone, and all of them joined (a command split across two strings is still seen).
  const texts = [...parts, parts.join(' '), input.repoUrl ?? '', input.description, input.summary];
  const reasons = new Set<string>();
  for (const rule of RULES) if (texts.some((text) => rule.pattern.test(text))) reasons.add(rule.reason);
  const mine = normalizeName(input.name);
  if (mine.length >= 4) {
    for (const other of input.existingNames) {
      const theirs = normalizeName(other);
      if (theirs.length < 4) continue;
      const allowed = theirs.length >= 10 ? 2 : 1;
      if (mine === theirs || distance(mine, theirs, allowed) <= allowed) {
        reasons.add(`name imitates the existing skill "${other}" (possible typosquat)`);
        break;
      }
    }
  }
  return [...reasons];
}
