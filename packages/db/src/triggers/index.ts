// Inbound triggers: the triggers a team made, every delivery to them, and the accepted webhook-ids
// that make a repeated delivery answer the same run.
export {
  insertTrigger,
  listTeamTriggers,
  teamTrigger,
  triggerForDelivery,
  updateTeamTrigger,
  deleteTeamTrigger,
  triggerTargetsExist,
  type TriggerRecord,
  type TriggerForDelivery,
  type TriggerAuthKind,
  type NewTrigger,
  type TriggerChanges,
} from './triggers.repository';
export {
  recordTriggerDelivery,
  listTriggerDeliveries,
  claimTriggerReceipt,
  triggerReceipt,
  completeTriggerReceipt,
  releaseTriggerReceipt,
  linkRunToTrigger,
  type TriggerDeliveryRecord,
  type NewTriggerDelivery,
  type TriggerReceiptRecord,
} from './trigger-deliveries.repository';
