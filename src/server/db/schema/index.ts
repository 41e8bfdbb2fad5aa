// One file per domain; each feature adds its tables in its own file and re-exports here.
export * from './platform';
export * from './accounts';
export * from './marketplace';
export * from './chats';
export * from './realtime';
export * from './connections';
export * from './notifications';
export * from './wishlist';
export * from './community';
export * from './ads';
export * from './safety';
export * from './blocks';
export * from './watching';
export * from './savedSearches';
export * from './dealMeetings';
export * from './bundles';
export * from './dealPost';
