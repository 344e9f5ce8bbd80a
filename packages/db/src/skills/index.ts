// The team skill library: written by the API, read by the API (run configs, agents' skill lists)
// and by the worker when a run loads a skill.
export {
  listSkills,
  skillById,
  skillByName,
  skillIndex,
  insertSkill,
  updateSkill,
  type SkillRecord,
  type SkillIndexRecord,
  type SkillFileRecord,
  type NewSkill,
  type SkillPatch,
} from './skills.repository';
