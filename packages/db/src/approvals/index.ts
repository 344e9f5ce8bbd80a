// Approvals as the worker opens them: who gave the instructions a held call follows from (four-eyes).
export { instructionGivers, type InstructionGivers } from './instruction-givers';
