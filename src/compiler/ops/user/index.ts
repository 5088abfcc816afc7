// User-defined operators (the new-operator lab): the spec, its checks and registry entry, the
// expression language of its semantics, its kernel's C side, and the test maker.
export type { ShapeTemplate, UserAttr, UserOp, UserOpSpec, UserTensor, UserTileRule } from './spec';
export { SHAPE_TEMPLATES } from './spec';
export { checkUserOp, semanticNames, TEMPLATE_INPUTS, ROW_NAMES, type SpecProblem } from './entry';
export { parseExpr, ExprError, FUNCTIONS } from './expr';
export { kernelName, kernelPath, kernelSignature, kernelSkeleton } from './kernel';
export { makeOpTest, testFolderZip, MAX_TEST_ELEMENTS, type OpTest, type OpTestOptions } from './maketest';
export { installedUserOps } from './session';
export { installUserOps } from '../index';
