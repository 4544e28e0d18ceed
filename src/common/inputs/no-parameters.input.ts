// The query of an endpoint that takes no parameters: read through the ValidationPipe like every
// other query, so that an unknown parameter is a 400 there too (docs/api-conventions.md#validation).
export class NoParameters {}
