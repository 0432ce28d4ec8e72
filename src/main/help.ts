// What `socialapi --help` and `socialapi help CMD` print: the commands in one screen, and each
// command's lines with a few words of what to expect. The usage printed after a usage error is the
// same summary.
export interface CommandHelp {
  name: string;
  /** Its lines of the summary. */
  usage: readonly string[];
  /** More, for `socialapi help NAME`. */
  details: string;
}

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'serve',
    usage: ['serve [--no-worker]          run the API (and a worker, unless --no-worker)'],
    details: 'Listens on PORT (3000): the API under /api/v1, the dashboard under /dashboard, MCP at /mcp. GET / lists the links. Migrations are applied at start.',
  },
  { name: 'worker', usage: ['worker                       run a worker only'], details: 'Claims and runs jobs (post delivery, webhooks, refreshes) from the shared store; run as many as you like.' },
  { name: 'migrate', usage: ['migrate                      apply database migrations'], details: 'Applies the pending migrations of DATABASE_URL and exits; serve and worker also apply them at start.' },
  { name: 'openapi', usage: ['openapi                      print the OpenAPI document'], details: 'The same document the service serves at /api/v1/openapi.json.' },
  {
    name: 'mcp',
    usage: [
      'mcp [--url URL] [--toolsets LIST]  the MCP tool server on stdio, acting with SOCIALAPI_API_KEY; against the',
      '                             store, or the running service at URL',
      'mcp tools                    print the MCP tool list (docs/mcp-tools.md)',
      'mcp config [--url URL]       print the MCP client configuration (stdio, HTTP, OAuth) for this checkout',
    ],
    details:
      'LIST is comma-separated toolsets (also SOCIALAPI_MCP_TOOLSETS; over HTTP, /mcp?toolsets=LIST). The default lists accounts, media, posts\n' +
      'and inbox; "all" lists every tool (ads, analytics, webhooks, whatsapp too). `mcp tools` shows each tool\'s toolset.',
  },
  {
    name: 'sandbox',
    usage: ['sandbox [--port N] [--host H] [--state FILE]  run the platform sandbox alone (default 127.0.0.1:4010), its state kept in FILE if given'],
    details: 'The simulated platforms on their own; point PLATFORM_API_BASE of a service at it.',
  },
  { name: 'orgs', usage: ['orgs create --name N [--approval]', 'orgs list'], details: '--approval holds every post of the organization for approval (posts approve / reject).' },
  {
    name: 'keys',
    usage: ['keys create --org ORG [--name N] [--rate-limit N] [--approval]', 'keys list --org ORG', 'keys revoke KEY_ID', 'keys rotate KEY_ID           print a new key and revoke the old one'],
    details: 'A key is printed once, when created or rotated; the store keeps its hash only. --rate-limit is requests per minute (default RATE_LIMIT_PER_MINUTE).',
  },
  { name: 'posts', usage: ['posts approve POST_ID        approve a post held for approval', 'posts reject POST_ID [--reason TEXT]'], details: 'For organizations or keys created with --approval.' },
  {
    name: 'dashboard',
    usage: ['dashboard link --org ORG [--email E]   print a single-use dashboard sign-in link (15 minutes)', 'dashboard revoke --org ORG   sign every dashboard session of the organization out'],
    details: 'The link is built on PUBLIC_BASE_URL.',
  },
  { name: 'help', usage: ['help [COMMAND]               this summary, or one command\'s details (also --help)'], details: 'socialapi help mcp, socialapi keys --help …' },
];

export const USAGE = `usage: socialapi <command> [options]

${COMMANDS.flatMap((command) => command.usage.map((line) => `  ${line}`)).join('\n')}

Settings come from environment variables (and .env); see README.md.`;

/** One command's help, or null for a name no command has. */
export function commandHelp(name: string): string | null {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return null;
  return `usage:\n${command.usage.map((line) => `  socialapi ${line}`).join('\n')}\n\n${command.details}`;
}
