// What the application setup (app.setup.ts) uses of the estimates feature: the reader of large
// estimate bodies, installed in the JSON body parser before the feature's module exists.
export { EstimateBodies } from './estimate-bodies.js';
