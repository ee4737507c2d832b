/** `npx tsx lib/temporal/cluster/prepare.ts ADDRESS NAMESPACE`: scripts/cluster.sh registers the namespace and search attributes. */
import { prepareNamespace } from '../namespace';

const [address, namespace] = process.argv.slice(2);
if (!address || !namespace) throw new Error('usage: prepare.ts ADDRESS NAMESPACE');
await prepareNamespace(address, namespace, 30);
console.log(`[cluster] namespace ${namespace} ready (retention 30 d, search attributes registered)`);
