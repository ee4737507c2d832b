/**
 * A process that owns one chart export (`node --import tsx test/helpers/chartExportOwner.ts WORKBOOK`): it exports the
 * workbook's charts and prints how many there were. chartExportCrash.test.ts kills it with SIGKILL mid-export.
 */
import { exportChartImages } from '../../lib/recalc/chartImages';

const images = await exportChartImages(process.argv[2]);
process.stdout.write(`${images.length} charts\n`);
