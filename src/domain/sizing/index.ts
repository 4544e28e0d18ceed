export * from './precision.js';
export * from './model-presets.js';
export * from './model.js';
export * from './fit.js';
