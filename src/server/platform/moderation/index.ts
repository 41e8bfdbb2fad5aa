export * from './registry';
export * from './members';
export * from './audit';
