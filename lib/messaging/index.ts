export * from './protocol';
export { classifySender, type ClassifiedSender, type SenderIdentity, type SenderKind } from './sender';
export {
  createHandlerRegistry,
  HandledError,
  type Handler,
  type HandlerRegistry,
  type RegistryOptions,
} from './dispatch';
export { sendMessage, MessageError } from './client';
