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
  HandledError,
  type Handler,
  type HandlerRegistry,
  type RegistryOptions,
} from './dispatch';
export { sendMessage, MessageError } from './client';
