// Enforced layers (docs/architecture.md, "Layers"). Folders under server/ form a one-way graph:
// a folder may import folders of its own or a lower layer, never a higher one, and no import
// cycle is allowed anywhere. `npm run check` runs this (npm run lint:layers).
const LAYERS = [
  ['core'],
  ['schemas'],
  ['net', 'signatures', 'events', 'chain'],
  ['credits', 'x402'],
  ['agents'],
  ['trust'],
  ['directory'],
  ['auth'],
  // product domains: siblings may use each other as long as no cycle forms
  [
    'invoke',
    'webhooks',
    'stream',
    'jobs',
    'signals',
    'referrals',
    'leaderboard',
    'analyzer',
    'skills',
    'a2a',
    'memory',
    'pipelines',
    'smart-money',
    'erc8004',
    'trade',
    'admin',
  ],
  ['stats', 'health'],
  ['http'],
  ['web-auth'],
  ['api', 'trpc', 'mcp', 'scheduler'],
];

const known = LAYERS.flat();
const above = (index) => LAYERS.slice(index + 1).flat();

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make the layers meaningless and load order fragile.',
      from: { path: '^(server|app|components)/' },
      to: { circular: true },
    },
    {
      name: 'unknown-server-folder',
      severity: 'error',
      comment: 'Every folder under server/ has a place in LAYERS (.dependency-cruiser.cjs).',
      from: { path: `^server/(?!(${known.join('|')})/)[^/]+/` },
      to: {},
    },
    ...LAYERS.flatMap((folders, index) =>
      above(index).length === 0
        ? []
        : [
            {
              name: `layer-${folders.join('-')}`,
              severity: 'error',
              comment: `${folders.join(', ')} may not import a higher layer (${above(index).join(', ')}).`,
              from: { path: `^server/(${folders.join('|')})/` },
              to: { path: `^server/(${above(index).join('|')})/` },
            },
          ],
    ),
    {
      name: 'server-without-ui',
      severity: 'error',
      comment: 'Services run and test without Next.js or React; only trpc/ and web-auth adapters touch them.',
      from: { path: '^server/(?!trpc/|web-auth/)' },
      to: { path: '^(app|components)/|node_modules/(react|react-dom|next)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
