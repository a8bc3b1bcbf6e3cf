export { commandChannel, connectionKey, replyChannel } from './command-channels';
export {
  parseCommandReply,
  parseCommandRequest,
  type RemoteCommandReply,
  type RemoteCommandRequest,
} from './command-messages';
export { connectionRecordOf, lastSeenOf, lookupConnection, type ConnectionRecord } from './connection-record';
export {
  REPLY_GRACE_MS,
  ReplicaCommandSender,
  type ReplicaCommand,
  type ReplicaCommandOutcome,
  type ReplicaCommandSenderOptions,
} from './replica-command.sender';
export { PileCommandErrorCode, PileCommandException } from './pile-command.exception';
export { answerOf, noAnswer, notConnected, type PileCommandAnswer } from './pile-command-outcome';
export {
  journalStatusOf,
  PileCommandRepository,
  type JournalledCommand,
  type PileCommandRecord,
  type PileCommandStatus,
} from './pile-command.repository';
