// How far two people labelling the same screens agree, scored as the detector is (kind, top row,
// overlapping columns, equal labels): `npx bun scripts/labels-agreement.ts`. The second labels
// (test/fixtures/screens/second-labels/NAME.json) were written blind to the first (NAME.json).
import { formatRates, labelAgreement } from "../test/fixtures/screens/score.ts";

const { screens, rates } = labelAgreement();
console.log(`${screens} screens labelled twice: the second labeller's elements scored against the first's`);
console.log(formatRates("second", rates));
