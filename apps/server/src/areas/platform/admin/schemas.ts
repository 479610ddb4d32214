import { Type } from 'typebox';
import { Uuid } from '../../../platform/schemas.js';
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Timestamp = Type.String({ format: 'date-time' });

export const Project = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const ProjectList = Type.Object({ items: Type.Array(Project) });
export const CreateProjectBody = Type.Object(
  { name: Name, description: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Environment = Type.Object({ id: Uuid, project_id: Uuid, name: Type.String(), created_at: Timestamp });
export const EnvironmentList = Type.Object({ items: Type.Array(Environment) });
export const CreateEnvironmentBody = Type.Object({ name: Name }, { additionalProperties: false });

export const Member = Type.Object({
  id: Uuid,
  user_id: Uuid,
  username: Type.String(),
  role: Type.String(),
  environment_ids: Type.Union([Type.Array(Uuid), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const MemberList = Type.Object({ items: Type.Array(Member) });
export const PutMemberBody = Type.Object(
  {
    role: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A role name: owner, editor, viewer or a custom role',
    }),
    environment_ids: Type.Optional(Type.Union([Type.Array(Uuid, { uniqueItems: true, maxItems: 100 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const Role = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  capabilities: Type.Array(Type.String()),
  built_in: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const RoleList = Type.Object({ items: Type.Array(Role) });
const Capabilities = Type.Array(Type.String({ pattern: '^[a-z_]+:[a-z_]+$' }), { uniqueItems: true, maxItems: 200 });
export const CreateRoleBody = Type.Object(
  { name: Name, description: Type.Optional(Type.String({ maxLength: 2000 })), capabilities: Capabilities },
  { additionalProperties: false },
);
export const UpdateRoleBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    capabilities: Type.Optional(Capabilities),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const MemberParams = Type.Object({ id: Uuid, user_id: Uuid });
