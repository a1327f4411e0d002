export * from './protocol';
export {
  classifyPort,
  classifySender,
  ownIdentity,
  type ClassifiedSender,
  type SenderIdentity,
  type SenderKind,
} from './sender';
export {
  createHandlerRegistry,
  fieldErrors,
  handlersOf,
  registerTable,
  type Handler,
  type HandlerGroup,
  type HandlerRegistry,
  type Handlers,
  type RegistryOptions,
} from './dispatch';
export { sendMessage, MessageError } from './client';
export { HandledError } from '@/lib/contract/handledError';
