export * from './registry';
export * from './members';
export * from './blocks';
export * from './audit';
export * from './rows';
