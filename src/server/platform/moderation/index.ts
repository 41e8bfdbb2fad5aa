export * from './registry';
export * from './members';
