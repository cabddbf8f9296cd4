// A remote is used through its remoteEntry.js; this entry only keeps the async boundary for a standalone load.
import('./bootstrap');
