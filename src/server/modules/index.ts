import type { Module } from '../app';
import { healthRoutes } from './health/routes';
import { statsRoutes } from './stats/routes';
import { devMailRoutes } from './devmail/routes';
import { contactRoutes } from './contact/routes';

/** Every domain module, registered in this order by buildApp. */
export const modules: Module[] = [healthRoutes, statsRoutes, devMailRoutes, contactRoutes];
