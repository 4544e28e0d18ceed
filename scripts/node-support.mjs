// Which Node runs the project, decided from package.json's "engines" (">=20.19"): a pure function,
// so that scripts/check-node.mjs stays a two-line shell around it and a test can ask about any
// version. Plain JavaScript: it runs before anything is compiled, on any Node.

export const NODE_20_END_OF_LIFE = '2026-04-30';
export const RECOMMENDED_MAJOR = 22;

/**
 * @param {{ version: string, wanted: string, platform: string, arch: string }} input
 * @returns {{ verdict: 'ok' | 'warn' | 'stop', line: string | null }}
 */
export function nodeVerdict({ version, wanted, platform, arch }) {
  const [needMajor = 0, needMinor = 0] = wanted
    .replace(/^>=\s*/, '')
    .split('.')
    .map(Number);
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    // The node-<platform>-<arch> packages on the npm registry are Node's own builds; npx puts the
    // one it fetches first on PATH for the command it runs (.ci/run fetches Node 22 the same way).
    const node = `node-${platform}-${arch}@${RECOMMENDED_MAJOR}`;
    return {
      verdict: 'stop',
      line: `This is Node ${version}; this project needs Node ${wanted} (${RECOMMENDED_MAJOR} LTS recommended). With npm alone: npx -y -p ${node} -- npm start (or nvm install ${RECOMMENDED_MAJOR}).`,
    };
  }
  if (major === 20) {
    return {
      verdict: 'warn',
      line: `Node ${version}: Node 20 reached end of life on ${NODE_20_END_OF_LIFE}; Node ${RECOMMENDED_MAJOR} LTS is recommended (.nvmrc). Going on.`,
    };
  }
  return { verdict: 'ok', line: null };
}
