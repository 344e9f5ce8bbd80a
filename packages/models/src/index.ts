// @looplane/models: model adapters behind the engine's model port.
export { createOpenAIModel, openAIEndpointConfigSchema, type OpenAIModelOptions, type OpenAIEndpointConfig } from './openai/openai-model';
export { createFauxModel, fauxEndpointConfigSchema, type FauxEndpointConfig } from './faux/faux-model';
export { createModelForEndpoint, modelLimitsOf, type EndpointSettings } from './endpoint';
