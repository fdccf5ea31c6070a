// Stage 11 with its pool forced on, the big-endian copying path stages 8 to 10 export,
// stage 10 with each of its one-block codes, and every BLAKE3 library, through the suite
// every stage passes (tests/fixtures/stage-suite.ts; the stages are in tests/stages.test.ts).
import { describeContestants, MORE_CONTESTANTS } from './fixtures/stage-suite.ts';

describeContestants(MORE_CONTESTANTS);
