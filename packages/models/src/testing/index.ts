// A Chat Completions server for tests of anything that talks to an OpenAI-compatible endpoint.
export { startChatServer, type ChatServer, type ChatReply, type ChatErrorReply, type ScriptedReply, type RecordedRequest } from './chat-completions-server';
export { LOOPBACK_ALLOWED } from './loopback-allowed';
