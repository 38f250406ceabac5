/** fio: job files generated from a spec, and fio's measurements compared with the model. */
export * from './generate';
export * from './compare';
export * from './measure';
export * from './svg';
